# SPDX-License-Identifier: MIT
# What `cmake --install` puts under the prefix (GNUInstallDirs paths):
#   include/wirejson.h
#   lib/libwirejson.so.X.Y.Z, its .so.X and .so links, lib/libwirejson.a
#   lib/pkgconfig/wirejson.pc
#   lib/cmake/wirejson/   wirejsonConfig.cmake (+ Version, Targets): the
#                         targets wirejson::wirejson and wirejson::wirejson_static
#   lib/sqlite3/wirejson.so   the SQLite extension (WIREJSON_SQLITE)
#   bin/wirejq, share/man/man1/wirejq.1   (WIREJSON_JQ)
# The front ends install themselves from their own folders.
include(CMakePackageConfigHelpers)

install(FILES ${PROJECT_SOURCE_DIR}/core/wirejson.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS wirejson_shared wirejson_core EXPORT wirejsonTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(wirejson_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/wirejson)
install(EXPORT wirejsonTargets NAMESPACE wirejson::
        DESTINATION ${wirejson_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/wirejsonConfig.cmake.in
  ${PROJECT_BINARY_DIR}/wirejsonConfig.cmake
  INSTALL_DESTINATION ${wirejson_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/wirejsonConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/wirejsonConfig.cmake
              ${PROJECT_BINARY_DIR}/wirejsonConfigVersion.cmake
        DESTINATION ${wirejson_cmake_dir})

# wirejson.pc names the prefix given to `cmake --install --prefix P`, not
# the one configured, so it is written when installing (write_pc.cmake).
# The static library needs libcrypto (Requires.private) and pthread_once
# (Libs.private), which `pkg-config --static --libs wirejson` then adds.
if(CMAKE_USE_PTHREADS_INIT)
  set(wirejson_pc_libs_private "-lpthread")
else()
  set(wirejson_pc_libs_private "${CMAKE_THREAD_LIBS_INIT}")
endif()
install(CODE "
  set(pc_template \"${CMAKE_CURRENT_LIST_DIR}/wirejson.pc.in\")
  set(pc_output \"${PROJECT_BINARY_DIR}/install/wirejson.pc\")
  set(pc_libdir \"${CMAKE_INSTALL_LIBDIR}\")
  set(pc_includedir \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(pc_version \"${PROJECT_VERSION}\")
  set(pc_description \"${PROJECT_DESCRIPTION}\")
  set(pc_libs_private \"${wirejson_pc_libs_private}\")
  include(\"${CMAKE_CURRENT_LIST_DIR}/write_pc.cmake\")
")
