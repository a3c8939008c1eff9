"""Runs a command and prints its output, then "exit code N"; always exits 0,
so a test can check the exact exit code with FileCheck."""
import subprocess
import sys

r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
sys.stdout.write(r.stdout.decode(errors="replace"))
print("exit code", r.returncode)
