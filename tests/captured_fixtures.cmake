# Runs `dlpack-usm capsule check` on every capsule file of a folder and fails
# when there is none or when the check fails (exit code not 0).
# Arguments: -DBINARY=... -DDIR=...
file(GLOB files "${DIR}/*.json")
list(LENGTH files count)
if(count EQUAL 0)
  message(FATAL_ERROR "no captured capsule files in ${DIR}")
endif()
execute_process(COMMAND "${BINARY}" capsule check ${files} RESULT_VARIABLE result
                OUTPUT_VARIABLE output ERROR_VARIABLE errors)
message("${output}${errors}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "capsule check of ${count} captured files exited ${result}")
endif()
message(STATUS "${count} captured files pass capsule check")
