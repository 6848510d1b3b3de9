{ "dependsOn": ["database", "validation"] }
