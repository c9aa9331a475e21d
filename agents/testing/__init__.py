"""Test support shipped with the package: scripted models and servers, the local llama.cpp
server helper. Injected by users' tests, never patched in by string path."""
