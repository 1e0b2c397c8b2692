# SPDX-License-Identifier: MIT
# Run by `cmake --install` (see install.cmake): writes wirejson.pc for the
# prefix being installed into and installs it into <libdir>/pkgconfig.
# In: pc_template, pc_output, pc_libdir, pc_includedir (as configured,
# relative to the prefix or absolute), pc_version, pc_description,
# pc_libs_private; CMAKE_INSTALL_PREFIX (the --prefix given, if any).
set(pc_prefix "${CMAKE_INSTALL_PREFIX}")
foreach(dir libdir includedir)
  if(IS_ABSOLUTE "${pc_${dir}}")
    set(pc_${dir}_full "${pc_${dir}}")
    set(pc_${dir}_line "${pc_${dir}}")
  else()
    set(pc_${dir}_full "${pc_prefix}/${pc_${dir}}")
    set(pc_${dir}_line "\${prefix}/${pc_${dir}}")
  endif()
endforeach()
configure_file("${pc_template}" "${pc_output}" @ONLY)
file(INSTALL DESTINATION "${pc_libdir_full}/pkgconfig" TYPE FILE
     FILES "${pc_output}")
