def input: "FAKE"; def debug: "D";
