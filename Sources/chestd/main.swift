print("chestd")
