def hello: "hi";
def twice_all: map(. * 2);
