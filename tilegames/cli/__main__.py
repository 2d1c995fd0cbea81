import sys

from tilegames.cli import main

sys.exit(main())
