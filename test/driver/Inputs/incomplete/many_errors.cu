// More errors than clang's limit: it stops with "too many errors emitted",
// a diagnostic with no place, which must not be the one the report names.
int v0 = undeclared_0;
int v1 = undeclared_1;
int v2 = undeclared_2;
int v3 = undeclared_3;
int v4 = undeclared_4;
int v5 = undeclared_5;
int v6 = undeclared_6;
int v7 = undeclared_7;
int v8 = undeclared_8;
int v9 = undeclared_9;
int v10 = undeclared_10;
int v11 = undeclared_11;
int v12 = undeclared_12;
int v13 = undeclared_13;
int v14 = undeclared_14;
int v15 = undeclared_15;
int v16 = undeclared_16;
int v17 = undeclared_17;
int v18 = undeclared_18;
int v19 = undeclared_19;
int v20 = undeclared_20;
int v21 = undeclared_21;
int v22 = undeclared_22;
int v23 = undeclared_23;
int v24 = undeclared_24;
