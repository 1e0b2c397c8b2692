# a comment line
def a: "a"; # and one after
