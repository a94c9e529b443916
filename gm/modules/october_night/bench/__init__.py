"""October Night's ``manage.py gm_bench`` figures (issue 22 item 6)."""
