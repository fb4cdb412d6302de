# twinblocks_layer(NAME DEPS...): one static library per folder, its sources found by glob
# so that adding a block is adding a file. The alias twinblocks::NAME is what others link;
# installed, the same name comes from find_package(twinblocks).
function(twinblocks_layer name)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  add_library(twinblocks_${name} STATIC ${sources})
  add_library(twinblocks::${name} ALIAS twinblocks_${name})
  target_include_directories(twinblocks_${name} PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/twinblocks>)
  target_link_libraries(twinblocks_${name} PRIVATE twinblocks_options PUBLIC ${ARGN})
  set_target_properties(twinblocks_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
                                                      EXPORT_NAME ${name})
  install(TARGETS twinblocks_${name} EXPORT twinblocksTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/twinblocks/${name}
          FILES_MATCHING PATTERN "*.h")
endfunction()
