"""python3 -m testrunner [STAGE...] [-- ARG...]: what tools/test runs."""
import sys

from .main import main

sys.exit(main())
