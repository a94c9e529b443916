#!/usr/bin/env python3
"""The CI gate over a pip-audit report: print every finding, fail only on a known-exploited one.

Usage: ``bin/audit_gate.py REPORT.json [--kev URL_OR_PATH]``. ``REPORT.json`` is ``pip-audit -f json`` output; the
KEV catalogue (CISA's Known Exploited Vulnerabilities, JSON with ``vulnerabilities[].cveID``) is read from
``--kev`` (a URL or a file path; default ``$GM_KEV_URL`` or CISA's feed). Exit status: 0 when no finding is in the
catalogue (findings are still printed), 1 when one is, 0 with a warning when the catalogue cannot be read and 1
when the report itself is unreadable.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.request
from pathlib import Path

KEV_URL = "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json"


def findings(report: dict) -> list[tuple[str, str, str, set[str]]]:
    """``(package, version, advisory id, {id and aliases})`` for every vulnerability in a pip-audit JSON report."""
    rows = []
    for dep in report.get("dependencies", []):
        for vuln in dep.get("vulns", []):
            ids = {vuln.get("id", "")} | set(vuln.get("aliases", []))
            rows.append((dep.get("name", "?"), dep.get("version", "?"), vuln.get("id", "?"), ids))
    return rows


def known_exploited(source: str, timeout: float = 20.0) -> set[str]:
    """The CVE ids of the KEV catalogue at ``source`` (URL or path). Raises ``OSError``/``ValueError`` when it
    cannot be read or parsed."""
    if "://" in source:
        with urllib.request.urlopen(source, timeout=timeout) as response:  # noqa: S310 - a configured feed URL
            data = json.load(response)
    else:
        data = json.loads(Path(source).read_text(encoding="utf-8"))
    return {v["cveID"] for v in data["vulnerabilities"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--kev", default=os.environ.get("GM_KEV_URL", KEV_URL))
    args = parser.parse_args(argv)
    try:
        rows = findings(json.loads(Path(args.report).read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        print(f"audit: the pip-audit report {args.report} is unreadable: {exc}", file=sys.stderr)
        return 1
    if not rows:
        print("audit: no known vulnerabilities in the runtime lock.")
        return 0
    for name, version, vid, ids in rows:
        print(f"audit: {name} {version}: {vid} ({', '.join(sorted(ids - {vid})) or 'no aliases'})")
    try:
        kev = known_exploited(args.kev)
    except (OSError, ValueError, KeyError) as exc:
        print(f"audit: WARNING: the known-exploited catalogue ({args.kev}) could not be read ({exc}); "
              f"{len(rows)} finding(s) reported above, none failed.", file=sys.stderr)
        return 0
    exploited = [(n, v, vid) for n, v, vid, ids in rows if ids & kev]
    for name, version, vid in exploited:
        print(f"audit: FAILED: {name} {version}: {vid} is known to be exploited — upgrade it in the lock.")
    return 1 if exploited else 0


if __name__ == "__main__":
    sys.exit(main())
