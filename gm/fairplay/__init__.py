"""Fair-play signals for masters (issue 24 item 6): salted hashes of login IPs and device cookies, kept 90 days,
compared between the seats and spectators of one game on the master's console. Players never see them."""
