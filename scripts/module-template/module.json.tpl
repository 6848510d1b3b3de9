{ "dependsOn": [] }
