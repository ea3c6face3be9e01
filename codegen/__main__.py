"""`python3 -m codegen`: see gen.main."""
import sys

from codegen.gen import main

sys.exit(main())
