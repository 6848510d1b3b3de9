{ "dependsOn": ["database"] }
