# SPDX-License-Identifier: MIT
"""Writes what a ClickHouse needs to call the build's wirejson as executable
user-defined functions: a folder with config.xml (user_scripts_path and
user_defined_executable_functions_config), user_scripts/wirejson (a link to
the build's binary) and one *_function.xml, and gives the chDB arguments
that load it.

    args = make(tmpdir, "build/wirejson", doc_functions() + [function_xml(...)])
    con = chdb.Connection(args)
"""
import os
import re
from xml.sax.saxutils import escape

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "clickhouse.md")


def doc_functions(doc=DOC):
    """The <function> elements of every ```xml block of the page that
    declares <functions>, as written there."""
    text = open(doc, encoding="utf-8").read()
    return [re.search(r"<functions>\n(.*)</functions>", b, re.S).group(1)
            for b in re.findall(r"```xml\n(.*?)```", text, re.S) if "<functions>" in b]


def function_xml(name, kind, fmt, command, arg_count, return_type,
                 extra=()):
    """One <function> element.  kind: executable | executable_pool;
    fmt: TabSeparated | RowBinary; extra: (setting, value) pairs such as
    ("send_chunk_header", "1")."""
    args = "".join("<argument><type>String</type><name>a%d</name></argument>" % k
                   for k in range(arg_count))
    more = "".join("<%s>%s</%s>" % (k, escape(v), k) for k, v in extra)
    return ("  <function><type>%s</type><name>%s</name>"
            "<return_type>%s</return_type>%s<format>%s</format>"
            "<command>%s</command>%s</function>\n"
            % (kind, name, return_type, args, fmt, escape(command), more))


def make(folder, wirejson, functions):
    scripts = os.path.join(folder, "user_scripts")
    os.makedirs(scripts, exist_ok=True)
    link = os.path.join(scripts, "wirejson")
    if not os.path.exists(link):
        os.symlink(os.path.abspath(wirejson), link)
    with open(os.path.join(folder, "wirejson_function.xml"), "w") as f:
        f.write("<functions>\n" + "".join(functions) + "</functions>\n")
    config = os.path.join(folder, "config.xml")
    with open(config, "w") as f:
        f.write("<clickhouse>\n"
                "  <user_scripts_path>%s</user_scripts_path>\n"
                "  <user_defined_executable_functions_config>%s/*_function.xml"
                "</user_defined_executable_functions_config>\n"
                "</clickhouse>\n" % (escape(scripts), escape(folder)))
    return ["--config-file=" + config, "--path=" + os.path.join(folder, "data")]
