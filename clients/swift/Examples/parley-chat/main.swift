print("parley-chat")
