.a |
  foo(1)
