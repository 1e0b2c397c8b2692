import "x" as x; def a: 1;
