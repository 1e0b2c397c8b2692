def twice: . * 2;
def greet($n): "hello \($n)";
