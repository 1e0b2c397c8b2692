def broken: (1;
