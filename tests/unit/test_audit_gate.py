"""CI's dependency gate (``bin/audit_gate.py``): every pip-audit finding is reported, only a known-exploited one
fails the run, and an unreachable catalogue warns instead of failing."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

GATE = Path(__file__).resolve().parents[2] / "bin" / "audit_gate.py"


def run(tmp_path, report: dict, kev: dict | None):
    (tmp_path / "report.json").write_text(json.dumps(report))
    kev_path = tmp_path / "kev.json"
    if kev is not None:
        kev_path.write_text(json.dumps(kev))
    return subprocess.run([sys.executable, str(GATE), str(tmp_path / "report.json"), "--kev", str(kev_path)],
                          capture_output=True, text=True, timeout=30)


REPORT = {"dependencies": [
    {"name": "django", "version": "5.2.0", "vulns": [{"id": "PYSEC-1", "aliases": ["CVE-2099-0001"]}]},
    {"name": "celery", "version": "5.5.0", "vulns": [{"id": "GHSA-x", "aliases": ["CVE-2099-0002"]}]},
    {"name": "nh3", "version": "0.3", "vulns": []},
]}


def test_a_known_exploited_finding_fails_and_names_the_package(tmp_path):
    done = run(tmp_path, REPORT, {"vulnerabilities": [{"cveID": "CVE-2099-0002"}]})
    assert done.returncode == 1
    assert "FAILED: celery 5.5.0: GHSA-x is known to be exploited" in done.stdout
    assert "django 5.2.0: PYSEC-1 (CVE-2099-0001)" in done.stdout  # reported, not failing


def test_findings_outside_the_catalogue_are_reported_and_pass(tmp_path):
    done = run(tmp_path, REPORT, {"vulnerabilities": [{"cveID": "CVE-2000-1"}]})
    assert done.returncode == 0 and "PYSEC-1" in done.stdout and "FAILED" not in done.stdout


def test_an_unreadable_catalogue_warns_and_passes(tmp_path):
    done = run(tmp_path, REPORT, None)
    assert done.returncode == 0 and "could not be read" in done.stderr


def test_a_clean_report_passes_and_an_unreadable_report_fails(tmp_path):
    assert run(tmp_path, {"dependencies": [{"name": "nh3", "version": "0.3", "vulns": []}]}, None).returncode == 0
    (tmp_path / "bad.json").write_text("{not json")
    done = subprocess.run([sys.executable, str(GATE), str(tmp_path / "bad.json")], capture_output=True, text=True)
    assert done.returncode == 1 and "unreadable" in done.stderr
