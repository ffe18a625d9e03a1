from scorekeeper_lab.cli import main

raise SystemExit(main())
