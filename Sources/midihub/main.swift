print("midihub")
