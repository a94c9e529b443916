"""Container health probe for the web service (Dockerfile HEALTHCHECK, docker/compose.yaml): asks the site's own
``/health/`` on 127.0.0.1:8000 and exits 0 only on 200.

The request names the first of ``ALLOWED_HOSTS`` (the production profile refuses other Host headers) and says it
came over HTTPS (the profile redirects plain HTTP), as the TLS proxy in front would. Standard library only.
"""
import os
import sys
import urllib.error
import urllib.request

host = next((h.strip().lstrip(".") for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()),
            "localhost")
port = os.environ.get("GM_HEALTH_PORT", "8000")
request = urllib.request.Request(f"http://127.0.0.1:{port}/health/?format=json",
                                 headers={"Host": host, "X-Forwarded-Proto": "https"})
try:
    with urllib.request.urlopen(request, timeout=float(os.environ.get("GM_HEALTH_TIMEOUT", "10"))) as response:
        sys.exit(0 if response.status == 200 else 1)
except urllib.error.HTTPError as error:
    print(error.read().decode(errors="replace")[:2000], file=sys.stderr)
    sys.exit(1)
except OSError as error:
    print(f"health probe failed: {error}", file=sys.stderr)
    sys.exit(1)
