"""Helpers the tests share across folders: plain functions and classes, imported by the test
modules that use them (fixtures stay in the conftest.py of the folder that uses them)."""
