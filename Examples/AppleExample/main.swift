// Signs in against the embedded Sign in with Apple emulator (being written).
print("apple-example")
