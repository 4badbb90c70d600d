"""Runs one pytest file for CTest: exit 77 (CTest's skip) with the reason when pytest is missing, pytest's own
exit status otherwise. A file whose tests were all skipped (PyTorch missing) is reported as skipped too."""

import sys

try:
    import pytest
except ImportError:
    print("SOFTGRAD_TEST_SKIPPED: pytest is not installed (Debian: apt install python3-pytest)")
    sys.exit(77)


class Outcomes:
    def __init__(self):
        self.passed = self.skipped = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" and report.passed:
            self.passed += 1
        if report.skipped:
            self.skipped += 1

    def pytest_collectreport(self, report):
        if report.skipped:  # a module skipped as a whole (pytest.importorskip)
            self.skipped += 1


outcomes = Outcomes()
status = pytest.main(["-q", "-rs", "-p", "no:cacheprovider", sys.argv[1]], plugins=[outcomes])
if status == 0 and outcomes.passed == 0 and outcomes.skipped > 0:
    print(f"SOFTGRAD_TEST_SKIPPED: every test of {sys.argv[1]} was skipped (see the reasons above)")
    sys.exit(77)
sys.exit(int(status))
