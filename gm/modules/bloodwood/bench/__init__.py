"""Bloodwood's ``manage.py gm_bench`` figures (issue 20 item 8)."""
