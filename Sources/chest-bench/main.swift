import ChestBench

ChestBench.main()
