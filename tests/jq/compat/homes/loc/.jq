# where a ~/.jq definition is

def where: $__loc__;
