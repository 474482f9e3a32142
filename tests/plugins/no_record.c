/* A shared object without the pdt_plugin record: not a pdt plugin. */
int not_a_plugin(void);
int not_a_plugin(void) { return 42; }
