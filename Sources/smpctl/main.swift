print("smpctl")
