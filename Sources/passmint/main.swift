print("passmint")
