def a: nosuch;
