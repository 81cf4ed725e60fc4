print("chest")
