# sm2c_compile.cmake: runs `sm2c compile` for sm2c_add_model() and reports
# its messages in the function's own terms.
#
#   cmake -DSM2C_WHO=<who> -DSM2C_RENAME=<flag>:<KEYWORD>,... -P sm2c_compile.cmake <sm2c> compile ...
#
# Every argument after this script's path is the command.  Its standard error
# (errors and warnings) is passed on with each flag in SM2C_RENAME spelt as
# the keyword the user wrote (--shape as SHAPES, ...) and prefixed by
# SM2C_WHO (sm2c_add_model(<target>)); a failure fails the build step.
cmake_minimum_required(VERSION 3.20)

set(cmd)
set(take OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(take)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL CMAKE_CURRENT_LIST_FILE OR CMAKE_ARGV${i} MATCHES "sm2c_compile\\.cmake$")
    set(take ON)
  endif()
endforeach()
execute_process(COMMAND ${cmd} RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_VARIABLE out)

# "--shape:SHAPES,--signature:SIGNATURES" -> each flag as its keyword, as a
# whole word only (--shape, not the --shape of a --shape-foo).
string(REPLACE "," ";" renames "${SM2C_RENAME}")
foreach(pair ${renames})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 flag)
  list(GET pair 1 keyword)
  string(REGEX REPLACE "(^|[^-A-Za-z0-9_])${flag}([^-A-Za-z0-9_]|$)" "\\1${keyword}\\2" err "${err}")
endforeach()
# sm2c's pointer to its own help means nothing here.
string(REGEX REPLACE " \\(sm2c help [^)]*\\)" "" err "${err}")
string(STRIP "${err}" err)
if(out)
  message("${out}")
endif()
# Each line as sm2c wrote it (FATAL_ERROR would re-wrap it), then the failure.
if(err)
  string(REPLACE "\n" "\n${SM2C_WHO}: " err "${err}")
  message("${SM2C_WHO}: ${err}")
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${SM2C_WHO}: sm2c failed (exit ${status})")
endif()
