{ "kind": "feature", "dependsOn": ["auth", "database", "validation"] }
