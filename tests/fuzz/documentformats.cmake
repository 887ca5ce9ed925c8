# glosa_document_formats(<var>): the names of the document format table's rows
# (app/core/documents/formats.cpp, where each row starts with its name: `{"txt", {`), so that the
# fuzz harnesses follow the table instead of a list of their own. A change to the table reconfigures.
function(glosa_document_formats out)
    set(table ${CMAKE_SOURCE_DIR}/app/core/documents/formats.cpp)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${table})
    file(STRINGS ${table} rows REGEX "^ *\\{\"[a-z0-9]+\", \\{")
    set(formats)
    foreach(row ${rows})
        string(REGEX REPLACE "^ *\\{\"([a-z0-9]+)\".*" "\\1" format "${row}")
        list(APPEND formats ${format})
    endforeach()
    if(NOT formats)
        message(FATAL_ERROR "no document format rows found in ${table}")
    endif()
    set(${out} ${formats} PARENT_SCOPE)
endfunction()
