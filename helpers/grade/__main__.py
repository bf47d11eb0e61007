import sys

from helpers.grade.command import main

sys.exit(main())
