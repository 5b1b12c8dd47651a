"""The base class that lets search/ drive any game's C core through its GameApi."""


cdef class CState:
    pass
