import MidihubCLI

Midihub.main()
