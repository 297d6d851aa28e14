# SPDX-License-Identifier: MIT
# tst_install: `cmake --install` into a scratch prefix puts every file where the freedesktop.org
# tools look, and the desktop files pass their validators when those are installed
# (scripts/setup installs them; CI checks the .deb the same way with scripts/install-check).
#   cmake -DBUILD_DIR=... -DPREFIX=... -P check_install.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}\n${err}")
endif()
set(expected
  bin/vtxscope bin/vtxscope-cli
  share/applications/org.vtxscope.vtxscope.desktop
  share/metainfo/org.vtxscope.vtxscope.metainfo.xml
  share/mime/packages/vtxscope.xml
  share/icons/hicolor/scalable/apps/vtxscope.svg)
foreach(size 16 24 32 48 64 128 256)
  list(APPEND expected share/icons/hicolor/${size}x${size}/apps/vtxscope.png)
endforeach()
# The Python package, when this build has it (python/CMakeLists.txt): every module, stub and
# marker by name, the compiled module by its pattern, and anything else the build tree's
# package holds (a file added to python/vtxscope/ must be installed too).
file(STRINGS "${BUILD_DIR}/CMakeCache.txt" _pydir REGEX "^VTXSCOPE_PYTHON_INSTALL_DIR:")
if(_pydir AND EXISTS "${BUILD_DIR}/python/vtxscope")
  string(REGEX REPLACE "^[^=]*=" "" _pydir "${_pydir}")
  list(APPEND expected bin/vtxscope-batch)
  foreach(f __init__.py __init__.pyi _batch_cli.py _errors.py _frame.py _table.py _vtxscope.pyi batch.py py.typed)
    list(APPEND expected ${_pydir}/vtxscope/${f})
  endforeach()
  file(GLOB _built RELATIVE "${BUILD_DIR}/python/vtxscope" "${BUILD_DIR}/python/vtxscope/*.py" "${BUILD_DIR}/python/vtxscope/*.pyi"
       "${BUILD_DIR}/python/vtxscope/py.typed" "${BUILD_DIR}/python/vtxscope/_vtxscope*.so")
  foreach(f IN LISTS _built)
    list(APPEND expected ${_pydir}/vtxscope/${f})
  endforeach()
  file(GLOB _module "${PREFIX}/${_pydir}/vtxscope/_vtxscope*.so")
  if(NOT _module)
    message(FATAL_ERROR "not installed: ${_pydir}/vtxscope/_vtxscope*.so (the compiled module)")
  endif()
  list(REMOVE_DUPLICATES expected)
endif()
foreach(f IN LISTS expected)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
if(DESKTOP_FILE_VALIDATE)
  execute_process(COMMAND "${DESKTOP_FILE_VALIDATE}" "${PREFIX}/share/applications/org.vtxscope.vtxscope.desktop"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT "${out}${err}" STREQUAL "")
    message(FATAL_ERROR "desktop-file-validate: ${out}${err}")
  endif()
endif()
find_program(APPSTREAMCLI appstreamcli)
if(APPSTREAMCLI)
  execute_process(COMMAND "${APPSTREAMCLI}" validate --no-net --pedantic "${PREFIX}/share/metainfo/org.vtxscope.vtxscope.metainfo.xml"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "appstreamcli validate: ${out}${err}")
  endif()
endif()
find_program(UPDATE_MIME_DATABASE update-mime-database)
if(UPDATE_MIME_DATABASE)
  # The MIME XML must be accepted by the tool Debian's trigger runs.
  execute_process(COMMAND "${UPDATE_MIME_DATABASE}" -V "${PREFIX}/share/mime"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR err MATCHES "[Ee]rror|[Ww]arning" OR NOT EXISTS "${PREFIX}/share/mime/application/x-vtx-replay.xml")
    message(FATAL_ERROR "update-mime-database: ${out}${err}")
  endif()
endif()
file(REMOVE_RECURSE "${PREFIX}")
message(STATUS "installed and validated ${PREFIX}")
