#define ROWS 32
