# sm2cFunctions.cmake: sm2c_add_model(), the one CMake function a project
# needs to compile a TensorFlow SavedModel with sm2c and link it.
#
# Included by sm2cConfig.cmake (installed package) and by sm2c's own
# CMakeLists.txt (add_subdirectory / FetchContent).  Before including, the
# includer sets:
#   SM2C_EXECUTABLE   the host sm2c: a path, or a target name (source tree)
#   SM2C_RUNTIME_DIR  the runtime sources (*.c) and headers
# and either defines the target sm2c::runtime itself or leaves it to
# sm2c_runtime_library() below, which builds the runtime with the project's
# (possibly cross) C compiler.
#
#   sm2c_add_model(<target> MODEL <dir>
#                  [NAME name] [SIGNATURES key...] [FUNCTIONS path...]
#                  [SHAPES key=d0,d1,... sig.key=d0,d1,...] [MAX_BATCH n] [EMIT c|obj]
#                  [WEIGHTS c|obj|inline] [TARGET triple] [CPU cpu]
#                  [SECTIONS class=name...] [FAST_ARENA bytes]
#                  [OUTPUT_DIR dir] [SKIP_FAILING] [OPTIONS arg...])
#
# makes the static library <target> holding the model's entry points, linked
# to sm2c::runtime, with the generated header <name>.h on its include path.
# The code is regenerated when any file under <dir> changes (a new file is
# seen too: the file list is a CONFIGURE_DEPENDS glob) or sm2c itself does.
# EMIT c (the default) compiles the generated C with the project's compiler;
# EMIT obj has sm2c write the object through LLVM for TARGET/CPU (default:
# CMAKE_C_COMPILER_TARGET, else the host).  With EMIT c the weights go in
# their own file, so that big models build fast and a change to the code does
# not recompile them: WEIGHTS c (the default) <name>_weights.c, WEIGHTS obj an
# object for TARGET/CPU written through LLVM, WEIGHTS inline in <name>.c.
# A SHAPES key must name an input of a selected signature (key: every
# signature with that input; sig.key: signature sig's only), and the shape
# must agree with the dims the signature declares, or the build fails.  A
# signature that cannot be compiled fails the build too, unless SKIP_FAILING
# leaves it out with a warning (sm2c compile --skip-failing).
# SECTIONS puts classes of memory (weights, arena, fast-arena, state) in
# named ELF sections for the project's linker script (sm2c compile --section
# class=name, each class once), and FAST_ARENA a second arena of at most
# that many bytes for the busiest buffers (--fast-arena).
# OPTIONS go to `sm2c compile`
# verbatim (e.g. --features +vfp4d16sp, --limit NAME=VALUE).
#
# sm2c's errors and warnings name the keyword the project wrote (SHAPES
# nosuch=4,1, not --shape nosuch=4,1), and with the runtime built here every
# model is generated (by the target <target>_sm2c) before any runtime object
# is compiled, so a model error stops the build first.  A project that sets no CMAKE_BUILD_TYPE (and no -O
# in CMAKE_C_FLAGS) gets the runtime and the models at -O2, not unoptimised.
include_guard(GLOBAL)
set_property(GLOBAL PROPERTY SM2C_FUNCTIONS_DIR ${CMAKE_CURRENT_LIST_DIR})

# -O2 for a GNU or Clang build with no build type and no -O flag of its own:
# unoptimised kernels run ten times slower.
function(_sm2c_default_optimisation target)
  get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT multi AND NOT CMAKE_BUILD_TYPE AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang"
     AND NOT CMAKE_C_FLAGS MATCHES "(^| )-O")
    target_compile_options(${target} PRIVATE -O2)
  endif()
endfunction()

# The runtime, once per project, from SM2C_RUNTIME_DIR.  IEEE results must not
# depend on FMA contraction (the compiler folds constants with these kernels).
function(sm2c_runtime_library)
  if(TARGET sm2c::runtime)
    return()
  endif()
  file(GLOB sources ${SM2C_RUNTIME_DIR}/*.c)
  add_library(sm2c_runtime STATIC ${sources})
  set_property(GLOBAL PROPERTY SM2C_RUNTIME_BUILT_HERE sm2c_runtime)
  target_include_directories(sm2c_runtime PUBLIC ${SM2C_RUNTIME_DIR})
  _sm2c_default_optimisation(sm2c_runtime)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(sm2c_runtime PRIVATE -ffp-contract=off)
  endif()
  set_target_properties(sm2c_runtime PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON
                        C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
  if(NOT MSVC)  # libm, also newlib's for arm-none-eabi
    target_link_libraries(sm2c_runtime PUBLIC m)
  endif()
  add_library(sm2c::runtime ALIAS sm2c_runtime)
endfunction()

# The `sm2c compile` arguments that sm2c_add_model's keywords spell, and in
# renames_var the flag:KEYWORD pairs (comma-separated) its messages are to be
# read with (sm2c_compile.cmake): each flag the project did not pass in
# OPTIONS itself.
function(_sm2c_compile_args out_var renames_var name)
  set(renames)
  foreach(pair --name:NAME --signature:SIGNATURES --function:FUNCTIONS --shape:SHAPES
               --max-batch:MAX_BATCH --skip-failing:SKIP_FAILING --emit:EMIT --weights:WEIGHTS
               --target:TARGET --cpu:CPU --section:SECTIONS --fast-arena:FAST_ARENA)
    string(REPLACE ":" ";" fk ${pair})
    list(GET fk 0 flag)
    if(NOT flag IN_LIST ARG_OPTIONS)
      list(APPEND renames ${pair})
    endif()
  endforeach()
  string(REPLACE ";" "," renames "${renames}")
  set(${renames_var} "${renames}" PARENT_SCOPE)
  set(args --name ${name})
  foreach(s ${ARG_SIGNATURES})
    list(APPEND args --signature ${s})
  endforeach()
  foreach(f ${ARG_FUNCTIONS})
    list(APPEND args --function ${f})
  endforeach()
  foreach(s ${ARG_SHAPES})
    list(APPEND args --shape ${s})
  endforeach()
  if(ARG_MAX_BATCH)
    list(APPEND args --max-batch ${ARG_MAX_BATCH})
  endif()
  if(ARG_SKIP_FAILING)
    list(APPEND args --skip-failing)
  endif()
  foreach(s ${ARG_SECTIONS})
    list(APPEND args --section ${s})
  endforeach()
  if(ARG_FAST_ARENA)
    list(APPEND args --fast-arena ${ARG_FAST_ARENA})
  endif()
  list(APPEND args --emit ${ARG_EMIT})
  if(ARG_EMIT STREQUAL "c")
    list(APPEND args --weights ${ARG_WEIGHTS})
  endif()
  if(ARG_EMIT STREQUAL "obj" OR ARG_WEIGHTS STREQUAL "obj")
    set(triple ${ARG_TARGET})
    if(NOT triple AND CMAKE_C_COMPILER_TARGET)
      set(triple ${CMAKE_C_COMPILER_TARGET})
    endif()
    if(triple)
      list(APPEND args --target ${triple})
    endif()
    if(ARG_CPU)
      list(APPEND args --cpu ${ARG_CPU})
    endif()
  endif()
  list(APPEND args ${ARG_OPTIONS})
  set(${out_var} ${args} PARENT_SCOPE)
endfunction()

function(sm2c_add_model target)
  cmake_parse_arguments(ARG "SKIP_FAILING" "MODEL;NAME;MAX_BATCH;EMIT;WEIGHTS;TARGET;CPU;OUTPUT_DIR;FAST_ARENA"
                        "SIGNATURES;FUNCTIONS;SHAPES;OPTIONS;SECTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sm2c_add_model(${target}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "sm2c_add_model(${target}): MODEL <SavedModel directory> is required")
  endif()
  get_filename_component(model ${ARG_MODEL} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  if(NOT EXISTS ${model}/saved_model.pb AND NOT EXISTS ${model}/saved_model.pbtxt)
    message(FATAL_ERROR "sm2c_add_model(${target}): ${model} holds no saved_model.pb(txt)")
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME ${target})
  endif()
  if(NOT ARG_EMIT)
    set(ARG_EMIT c)
  endif()
  if(NOT ARG_EMIT MATCHES "^(c|obj)$")
    message(FATAL_ERROR "sm2c_add_model(${target}): EMIT must be c or obj, not ${ARG_EMIT}")
  endif()
  if(NOT ARG_WEIGHTS)
    set(ARG_WEIGHTS c)
  endif()
  if(NOT ARG_WEIGHTS MATCHES "^(c|obj|inline)$")
    message(FATAL_ERROR "sm2c_add_model(${target}): WEIGHTS must be c, obj or inline, not ${ARG_WEIGHTS}")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/sm2c/${target})
  endif()
  sm2c_runtime_library()
  _sm2c_compile_args(args renames ${ARG_NAME})
  get_property(functions_dir GLOBAL PROPERTY SM2C_FUNCTIONS_DIR)

  # Every file of the model, re-globbed at each build so that a new file
  # (another variables shard) reconfigures too.
  file(GLOB_RECURSE model_files CONFIGURE_DEPENDS ${model}/*)
  set(header ${ARG_OUTPUT_DIR}/${ARG_NAME}.h)
  if(ARG_EMIT STREQUAL "obj")
    set(code ${ARG_OUTPUT_DIR}/${ARG_NAME}.o)
  elseif(ARG_WEIGHTS STREQUAL "inline")
    set(code ${ARG_OUTPUT_DIR}/${ARG_NAME}.c)
  elseif(ARG_WEIGHTS STREQUAL "obj")
    set(code ${ARG_OUTPUT_DIR}/${ARG_NAME}.c ${ARG_OUTPUT_DIR}/${ARG_NAME}_weights.o)
  else()
    set(code ${ARG_OUTPUT_DIR}/${ARG_NAME}.c ${ARG_OUTPUT_DIR}/${ARG_NAME}_weights.c)
  endif()
  set(tool ${SM2C_EXECUTABLE})
  set(tool_dep)
  if(TARGET ${SM2C_EXECUTABLE})
    set(tool $<TARGET_FILE:${SM2C_EXECUTABLE}>)
    set(tool_dep ${SM2C_EXECUTABLE})
  endif()
  # The runtime sources sm2c also copies beside its output are left there for
  # hand-written builds; this library links sm2c::runtime instead, so that
  # several models share one copy.
  add_custom_command(
    OUTPUT ${header} ${code}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${ARG_OUTPUT_DIR}/..
    COMMAND ${CMAKE_COMMAND} "-DSM2C_WHO=sm2c_add_model(${target})" "-DSM2C_RENAME=${renames}"
            -P ${functions_dir}/sm2c_compile.cmake ${tool} compile ${model} -o ${ARG_OUTPUT_DIR} ${args}
    DEPENDS ${model_files} ${tool_dep} ${functions_dir}/sm2c_compile.cmake
    COMMENT "sm2c: compiling ${ARG_MODEL} to ${ARG_NAME}"
    VERBATIM)
  # The generation as a target of its own, which the runtime built here waits
  # for: a model error stops the build before the runtime's objects compile.
  add_custom_target(${target}_sm2c DEPENDS ${header} ${code})
  get_property(own_runtime GLOBAL PROPERTY SM2C_RUNTIME_BUILT_HERE)
  if(own_runtime)
    add_dependencies(${own_runtime} ${target}_sm2c)
  endif()
  # Objects sm2c writes are linked as they are, whatever the toolchain's
  # object suffix (.obj for CMAKE_SYSTEM_NAME Generic).
  foreach(f ${code})
    if(f MATCHES "\\.o$")
      set_source_files_properties(${f} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    endif()
  endforeach()
  add_library(${target} STATIC ${code} ${header})
  add_dependencies(${target} ${target}_sm2c)
  target_include_directories(${target} PUBLIC ${ARG_OUTPUT_DIR})
  target_link_libraries(${target} PUBLIC sm2c::runtime)
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  if(ARG_EMIT STREQUAL "c")
    set_target_properties(${target} PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
                          POSITION_INDEPENDENT_CODE ON)
    if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
      target_compile_options(${target} PRIVATE -ffp-contract=off)
    endif()
    _sm2c_default_optimisation(${target})
  endif()
endfunction()
