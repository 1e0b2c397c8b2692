def f: "from ~/.jq/m";
