# SPDX-License-Identifier: MIT
# Finds what the Python package needs (VTXSCOPE_PYTHON: AUTO / ON / OFF) and sets
# VTXSCOPE_PYTHON_FOUND. The interpreter is Debian's /usr/bin/python3 unless one is given
# (-DPython_EXECUTABLE= or -DPython3_EXECUTABLE=): pybind11, numpy, pandas and Dask come from
# Debian packages in its dist-packages, and FindPython would otherwise take the first python3 on
# PATH (a pyenv shim, say), which has none of them.
set(VTXSCOPE_PYTHON_FOUND OFF)
if(VTXSCOPE_PYTHON STREQUAL "OFF")
  return()
endif()
if(NOT VTXSCOPE_PYTHON MATCHES "^(AUTO|ON)$")
  message(FATAL_ERROR "VTXSCOPE_PYTHON must be AUTO, ON or OFF (is '${VTXSCOPE_PYTHON}')")
endif()

if(NOT Python_EXECUTABLE)
  if(Python3_EXECUTABLE)
    set(Python_EXECUTABLE ${Python3_EXECUTABLE})
  elseif(EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
endif()
set(_vtx_py_missing "")
find_package(Python 3.9 COMPONENTS Interpreter Development.Module NumPy)
if(NOT Python_FOUND)
  set(_vtx_py_missing "python3-dev / python3-numpy for ${Python_EXECUTABLE}")
else()
  find_package(pybind11 2.6 CONFIG QUIET)
  if(NOT pybind11_FOUND)
    set(_vtx_py_missing "pybind11-dev")
  endif()
endif()
if(_vtx_py_missing)
  if(VTXSCOPE_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "VTXSCOPE_PYTHON=ON but ${_vtx_py_missing} is missing (scripts/setup installs it; "
                        "the interpreter must be Debian's /usr/bin/python3 or given with -DPython_EXECUTABLE=)")
  endif()
  message(STATUS "vtxscope: Python package not built (missing ${_vtx_py_missing})")
  return()
endif()
message(STATUS "vtxscope: Python package for ${Python_EXECUTABLE} (${Python_VERSION}), pybind11 ${pybind11_VERSION}")
set(VTXSCOPE_PYTHON_FOUND ON)
