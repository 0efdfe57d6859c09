from ghostgames.cli import main

main()
