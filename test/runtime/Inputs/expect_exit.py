"""Runs a command and succeeds only if it exits with the given code.

lit's internal shell has no $?; usage: expect_exit.py CODE COMMAND...
"""
import subprocess
import sys

expected = int(sys.argv[1])
code = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode
if code != expected:
    print(f"exit code {code}, expected {expected}: {' '.join(sys.argv[2:])}")
    sys.exit(1)
