def a: 1;
def b: (;
