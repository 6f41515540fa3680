this is not an smt2 file at all }{ 42 !!
