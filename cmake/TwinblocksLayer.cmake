# twinblocks_layer(NAME DEPS...): one static library per folder, its sources found by glob
# so that adding a block is adding a file (but those in plugins/, which are libraries of
# their own, opened at run time: twinblocks_plugin). The alias twinblocks::NAME is what others link;
# installed, the same name comes from find_package(twinblocks).
function(twinblocks_layer name)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  list(FILTER sources EXCLUDE REGEX "/plugins/")
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

# twinblocks_plugin(LAYER NAME SOURCE DEPS...): libtwinblocks_NAME.so, a module the layer
# opens with dlopen on first use (common/detail/plugin_loader.h), in the build tree's
# lib/twinblocks and installed to libdir/twinblocks. Whatever links the layer has it built.
function(twinblocks_plugin layer name source)
  add_library(twinblocks_${name} MODULE ${source})
  target_include_directories(twinblocks_${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(twinblocks_${name} PRIVATE twinblocks_options ${ARGN})
  set_target_properties(twinblocks_${name} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib/twinblocks)
  add_dependencies(twinblocks_${layer} twinblocks_${name})
  install(TARGETS twinblocks_${name} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/twinblocks)
endfunction()
