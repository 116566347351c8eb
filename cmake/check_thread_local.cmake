# Fails, naming each file, when a source file under OINFER_SRC (default:
# src/ beside this folder) spells thread_local, except ops/thread_pool.cpp,
# whose per-thread pool index is allowed, and api/c_api.cpp, whose
# per-thread last-error message (one short string per thread that saw a
# failing C call, freed with the thread) is the C API's error model. Kernel
# scratch is planned (ops/kernel.h, KernelInit::requestScratch): a grow-only per-thread buffer
# would hold memory the Session's figures do not show and never frees. Run
# by the ThreadLocal.* tests:
#   cmake -DOINFER_SRC=src -P cmake/check_thread_local.cmake
if(NOT OINFER_SRC)
  set(OINFER_SRC ${CMAKE_CURRENT_LIST_DIR}/../src)
endif()
get_filename_component(OINFER_SRC ${OINFER_SRC} ABSOLUTE)
set(allowed "ops/thread_pool.cpp" "api/c_api.cpp")

file(GLOB_RECURSE files RELATIVE ${OINFER_SRC} ${OINFER_SRC}/*.h ${OINFER_SRC}/*.hpp ${OINFER_SRC}/*.cpp
  ${OINFER_SRC}/*.cc ${OINFER_SRC}/*.cu ${OINFER_SRC}/*.cuh)
set(violations "")
list(LENGTH files checked)
foreach(rel ${files})
  list(FIND allowed "${rel}" allowed_index)
  if(allowed_index GREATER -1)
    continue()
  endif()
  file(STRINGS ${OINFER_SRC}/${rel} lines REGEX "thread_local")
  foreach(line ${lines})
    string(STRIP "${line}" line)
    string(APPEND violations "  ${rel}: ${line}\n")
  endforeach()
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no source files under ${OINFER_SRC}")
endif()
if(NOT violations STREQUAL "")
  list(JOIN allowed ", " allowed_text)
  message(FATAL_ERROR "thread_local outside ${allowed_text} (kernels request scratch instead, ops/kernel.h):\n"
    "${violations}")
endif()
list(JOIN allowed ", " allowed_text)
message(STATUS "thread_local: ${checked} files in ${OINFER_SRC}, none outside ${allowed_text}")
